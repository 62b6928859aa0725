/**
 * The template's caption field: Quill's editor (CaptionEditor.tsx, about 55 KB gzip) loads when the caption is
 * first hovered, touched or focused, not with the screen. Until then the field draws a look-alike of the same
 * size from Quill's own classes and toolbar icons: the toolbar (inert) and the caption as stored, which the server
 * sanitised when it was saved (the list draws it the same way). The look-alike is a focusable, labelled text box;
 * given the focus it hands it to the editor, caret at the end, once the editor is drawn in its place.
 */
import { lazy, Suspense, useRef, useState, useTransition, type FocusEvent } from 'react';
import 'react-quill-new/dist/quill.snow.css';
import blockquote from 'quill/assets/icons/blockquote.svg?raw';
import bold from 'quill/assets/icons/bold.svg?raw';
import clean from 'quill/assets/icons/clean.svg?raw';
import code from 'quill/assets/icons/code.svg?raw';
import italic from 'quill/assets/icons/italic.svg?raw';
import link from 'quill/assets/icons/link.svg?raw';
import listBullet from 'quill/assets/icons/list-bullet.svg?raw';
import listOrdered from 'quill/assets/icons/list-ordered.svg?raw';
import strike from 'quill/assets/icons/strike.svg?raw';
import { CAPTION_TOOLBAR } from './captionToolbar';

const ICONS: Record<string, string> = { blockquote, bold, clean, code, italic, link, 'list-bullet': listBullet, 'list-ordered': listOrdered, strike };

const loadEditor = () => import('./CaptionEditor');
const Editor = lazy(loadEditor);

/**
 * The stored caption as Quill draws it: Quill keeps every list as `<ol>` with a `data-list` on each item and
 * the marker in a span of its own, and reads a `<ul>` (the demo's templates, older saves) into that form; its
 * styles are written for that form only.
 */
function asQuillDraws(html: string): string {
  if (!/<(ul|ol)\b/i.test(html)) return html;
  const parsed = document.createElement('template');
  parsed.innerHTML = html;
  for (const list of parsed.content.querySelectorAll('ul, ol')) {
    const kind = list.tagName === 'UL' ? 'bullet' : 'ordered';
    for (const item of list.children) {
      if (item.tagName !== 'LI') continue;
      if (!item.hasAttribute('data-list')) item.setAttribute('data-list', kind);
      // Quill draws the bullet or number in an inert span of its own.
      if (!item.querySelector(':scope > .ql-ui')) item.prepend(Object.assign(document.createElement('span'), { className: 'ql-ui', contentEditable: 'false' }));
    }
    if (list.tagName === 'UL') {
      const ol = document.createElement('ol');
      ol.append(...list.childNodes);
      list.replaceWith(ol);
    }
  }
  return parsed.innerHTML;
}

/** Quill's snow toolbar and editing area, drawn without Quill. */
function LookAlike({ html, label, busy, onWant }: { html: string; label: string; busy: boolean; onWant: (focus: boolean) => void }) {
  return (
    <div className="quill" onPointerEnter={() => onWant(false)} onPointerDown={() => onWant(true)}>
      <div className="ql-toolbar ql-snow" aria-hidden="true">
        {CAPTION_TOOLBAR.map((group, i) => (
          <span className="ql-formats" key={i}>
            {group.map(({ format, value }) => (
              <button
                key={`${format}-${value ?? ''}`}
                type="button"
                className={`ql-${format}`}
                value={value}
                disabled
                tabIndex={-1}
                dangerouslySetInnerHTML={{ __html: ICONS[value ? `${format}-${value}` : format] ?? '' }}
              />
            ))}
          </span>
        ))}
      </div>
      <div className="ql-container ql-snow">
        <div
          className="ql-editor"
          role="textbox"
          aria-multiline="true"
          aria-label={label}
          aria-busy={busy || undefined}
          tabIndex={0}
          onFocus={() => onWant(true)}
          dangerouslySetInnerHTML={{ __html: html ? asQuillDraws(html) : '<p><br></p>' }}
        />
      </div>
    </div>
  );
}

export interface CaptionFieldProps {
  value?: string;
  onChange?: (html: string) => void;
  onPlain: (text: string) => void;
  label: string;
}

/** The caption as a form control (antd's Form.Item gives `value`/`onChange`); `onPlain` receives the plain text. */
export function CaptionField({ value, onChange, onPlain, label }: CaptionFieldProps) {
  const [wanted, setWanted] = useState(false);
  const [loading, startLoading] = useTransition();
  // Whether the look-alike had the focus when the editor arrived: then the editor takes it.
  const focus = useRef(false);
  const want = (withFocus: boolean) => {
    if (withFocus) focus.current = true;
    if (wanted) return;
    void loadEditor();
    // A transition keeps the look-alike (and its focus) on screen until the editor is ready to replace it.
    startLoading(() => setWanted(true));
  };
  const leave = (e: FocusEvent) => {
    // Focus moved elsewhere before the editor arrived (a removed element's blur has no related target).
    if (e.relatedTarget) focus.current = false;
  };
  const lookAlike = (busy: boolean) => (
    <div onBlur={leave}>
      <LookAlike html={value ?? ''} label={label} busy={busy} onWant={want} />
    </div>
  );
  return (
    <Suspense fallback={lookAlike(true)}>
      {wanted ? <Editor value={value} onChange={onChange} onPlain={onPlain} label={label} autoFocus={focus.current} /> : lookAlike(loading)}
    </Suspense>
  );
}
