import sanitizeHtml from 'sanitize-html';

const ALIGN = ['ql-align-center', 'ql-align-right', 'ql-align-justify'];
const INDENT = Array.from({ length: 8 }, (_, i) => `ql-indent-${i + 1}`);

/**
 * The caption HTML as stored and shown: formatting tags of the caption editor only, links to
 * http(s) and tel: only (opening in a new tab without an opener). Scripts, styles, event handlers,
 * other URLs and unknown tags are removed; text is kept.
 */
export const CAPTION_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'code', 'pre', 'blockquote', 'ol', 'ul', 'li', 'a', 'span', 'h1', 'h2', 'h3'],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    li: ['data-list', 'class'],
    p: ['class'],
    h1: ['class'],
    h2: ['class'],
    h3: ['class'],
  },
  allowedClasses: { '*': [...ALIGN, ...INDENT] },
  allowedSchemes: ['http', 'https', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
  transformTags: {
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { target: '_blank', rel: 'noopener noreferrer' };
      if (attribs.href) out.href = attribs.href.trim();
      return { tagName, attribs: out };
    },
    li: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = {};
      if (attribs['data-list'] === 'bullet' || attribs['data-list'] === 'ordered') out['data-list'] = attribs['data-list'];
      if (attribs.class) out.class = attribs.class;
      return { tagName, attribs: out };
    },
  },
  // The editor writes spaces as non-breaking ones; plain spaces keep captions wrapping normally.
  textFilter: (text) => text.replace(/\u00a0/g, ' '),
};

export function sanitizeCaption(html: string): string {
  return sanitizeHtml(html, CAPTION_OPTIONS)
    .replace(/&nbsp;/g, ' ')
    .trim();
}

/** The caption's visible text (no tags), to tell whether there is anything to send. */
export function captionText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;|\u00a0/g, ' ')
    .trim();
}
