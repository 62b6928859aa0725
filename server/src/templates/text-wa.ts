/**
 * WhatsApp text from sanitised caption HTML: bold `*x*`, italic `_x_`, strike `~x~`, monospace
 * ```` ```x``` ````, bullet (`- `) and numbered (`1. `) lists, quotes (`> `), links as `text (url)`,
 * paragraphs and line breaks as new lines. The input is the sanitiser's output (well-formed, a known
 * set of tags), so a small tree builder is enough.
 */

interface Element {
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = string | Element;

const VOID = new Set(['br']);

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
    return named[lower] ?? whole;
  });
}

function parse(html: string): Element {
  const root: Element = { tag: 'root', attrs: {}, children: [] };
  const stack: Element[] = [root];
  const re = /<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const top = stack[stack.length - 1]!;
    if (m[4] !== undefined) {
      top.children.push(decodeEntities(m[4]).replace(/\u00a0/g, ' '));
      continue;
    }
    const tag = m[2]!.toLowerCase();
    if (m[1]) {
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([a-zA-Z-:]+)\s*=\s*"([^"]*)"/g)) attrs[a[1]!.toLowerCase()] = decodeEntities(a[2]!);
    const el: Element = { tag, attrs, children: [] };
    top.children.push(el);
    if (!VOID.has(tag) && !m[3]!.trim().endsWith('/')) stack.push(el);
  }
  return root;
}

/** Wraps text in a WhatsApp marker, line by line, with spaces kept outside the markers. */
function wrap(marker: string, inner: string): string {
  return inner
    .split('\n')
    .map((line) => {
      const core = line.trim();
      if (!core) return line;
      if (core.startsWith(marker) && core.endsWith(marker) && core.length > 2 * marker.length) return line;
      const lead = line.slice(0, line.length - line.trimStart().length);
      const trail = line.slice(line.trimEnd().length);
      return `${lead}${marker}${core}${marker}${trail}`;
    })
    .join('\n');
}

function inline(nodes: Node[]): string {
  return nodes.map(inlineNode).join('');
}

function inlineNode(node: Node): string {
  if (typeof node === 'string') return node;
  const inner = () => inline(node.children);
  switch (node.tag) {
    case 'br':
      return '\n';
    case 'strong':
    case 'b':
      return wrap('*', inner());
    case 'em':
    case 'i':
      return wrap('_', inner());
    case 's':
    case 'strike':
    case 'del':
      return wrap('~', inner());
    case 'code':
      return wrap('```', inner());
    case 'a': {
      const text = inner();
      const href = node.attrs.href ?? '';
      const shown = href.toLowerCase().startsWith('tel:') ? href.slice(4) : href;
      if (!shown || shown === text.trim()) return text || shown;
      return `${text} (${shown})`;
    }
    default:
      return isBlock(node.tag) ? block([node]).replace(/\n$/, '') : inner();
  }
}

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'blockquote', 'pre', 'ul', 'ol', 'li']);
const isBlock = (tag: string) => BLOCKS.has(tag);

function indentOf(el: Element): number {
  const m = /ql-indent-(\d)/.exec(el.attrs.class ?? '');
  return m ? Number(m[1]) : 0;
}

function list(el: Element, depth: number): string {
  let out = '';
  const counters: number[] = [];
  for (const child of el.children) {
    if (typeof child === 'string' || child.tag !== 'li') continue;
    const level = depth + indentOf(child);
    const ordered = child.attrs['data-list'] ? child.attrs['data-list'] === 'ordered' : el.tag === 'ol';
    counters.length = level + 1;
    counters[level] = ordered ? (counters[level] ?? 0) + 1 : 0;
    const own = child.children.filter((c) => typeof c === 'string' || (c.tag !== 'ul' && c.tag !== 'ol'));
    const nested = child.children.filter((c): c is Element => typeof c !== 'string' && (c.tag === 'ul' || c.tag === 'ol'));
    out += `${'  '.repeat(level)}${ordered ? `${counters[level]}. ` : '- '}${inline(own).trim()}\n`;
    for (const sub of nested) out += list(sub, level + 1);
  }
  return out;
}

function block(nodes: Node[]): string {
  let out = '';
  let pendingInline: Node[] = [];
  const flush = () => {
    if (pendingInline.length) out += `${inline(pendingInline)}`;
    pendingInline = [];
  };
  for (const node of nodes) {
    if (typeof node === 'string' || !isBlock(node.tag)) {
      pendingInline.push(node);
      continue;
    }
    flush();
    if (out && !out.endsWith('\n')) out += '\n';
    const text = inline(node.children);
    switch (node.tag) {
      case 'h1':
      case 'h2':
      case 'h3':
        out += `${wrap('*', text)}\n`;
        break;
      case 'blockquote':
        out += `${text
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}\n`;
        break;
      case 'pre':
        out += `\`\`\`${text.replace(/^\n|\n$/g, '')}\`\`\`\n`;
        break;
      case 'ul':
      case 'ol':
        out += list(node, 0);
        break;
      default:
        // An empty editor line is <p><br></p>: one empty line, not two.
        out += `${text === '\n' ? '' : text}\n`;
    }
  }
  flush();
  return out;
}

export function htmlToWhatsapp(html: string): string {
  return block(parse(html).children)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
