import { describe, expect, it } from 'vitest';
import { captionText, sanitizeCaption } from '../../server/src/templates/sanitize';
import { htmlToWhatsapp } from '../../server/src/templates/text-wa';

describe('sanitizeCaption', () => {
  it('removes scripts, event handlers, styles and unknown tags but keeps their text where it is text', () => {
    expect(sanitizeCaption('<p>Hai<script>alert(1)</script></p>')).toBe('<p>Hai</p>');
    expect(sanitizeCaption('<p><img src=x onerror="alert(1)">Halo <b onclick="x()">kak</b></p>')).toBe('<p>Halo <b>kak</b></p>');
    expect(sanitizeCaption('<style>p{}</style><div><p style="color:red">x</p></div>')).toBe('<p>x</p>');
    expect(sanitizeCaption('<iframe src="https://evil"></iframe><svg><script>1</script></svg>ok')).toBe('ok');
  });

  it('keeps http(s) and tel links only, opening in a new tab without an opener', () => {
    expect(sanitizeCaption('<a href="https://toko.id/promo">Promo</a>')).toBe('<a target="_blank" rel="noopener noreferrer" href="https://toko.id/promo">Promo</a>');
    expect(sanitizeCaption('<a href="tel:+6281234">Telp</a>')).toContain('href="tel:+6281234"');
    expect(sanitizeCaption('<a href="javascript:alert(1)">x</a>')).not.toContain('javascript');
    expect(sanitizeCaption('<a href="JaVaScRiPt:alert(1)">x</a>')).not.toMatch(/javascript/i);
    expect(sanitizeCaption('<a href="data:text/html,<script>1</script>">x</a>')).not.toContain('data:');
    expect(sanitizeCaption('<a href="//evil.com">x</a>')).not.toContain('evil');
  });

  it('keeps nested formatting, editor list markers and alignment classes, and the placeholders', () => {
    const html = '<p class="ql-align-center ql-evil">Halo <strong><em>{name}</em></strong>,&nbsp;nomor {phoneNumber}</p><ol><li data-list="bullet" onclick="x">a</li></ol>';
    expect(sanitizeCaption(html)).toBe('<p class="ql-align-center">Halo <strong><em>{name}</em></strong>, nomor {phoneNumber}</p><ol><li data-list="bullet">a</li></ol>');
    expect(captionText('<p><br></p><p> </p>')).toBe('');
    expect(captionText('<p><b>x</b></p>')).toBe('x');
  });
});

describe('htmlToWhatsapp', () => {
  const wa = (html: string) => htmlToWhatsapp(sanitizeCaption(html));

  it('turns bold, italic, strike and monospace into WhatsApp markers with spaces outside them', () => {
    expect(wa('<p>Halo <strong>{name} </strong>dan <em>kamu</em>, <s>lama</s> <code>KODE1</code></p>')).toBe('Halo *{name}* dan _kamu_, ~lama~ ```KODE1```');
    expect(wa('<p><strong><em>dua</em></strong></p>')).toBe('*_dua_*');
    expect(wa('<p><strong> </strong>x</p>')).toBe('x');
  });

  it('writes paragraphs, empty lines and line breaks as new lines', () => {
    expect(wa('<p>Baris 1</p><p><br></p><p>Baris 3<br>Baris 4</p>')).toBe('Baris 1\n\nBaris 3\nBaris 4');
  });

  it('writes bullet and numbered lists, the editor\'s data-list form and nested lists', () => {
    expect(wa('<ul><li>a</li><li>b</li></ul><ol><li>x</li><li>y</li></ol>')).toBe('- a\n- b\n1. x\n2. y');
    expect(wa('<ol><li data-list="bullet">a</li><li data-list="ordered">b</li><li data-list="ordered" class="ql-indent-1">c</li></ol>')).toBe('- a\n1. b\n  1. c');
    expect(wa('<ul><li>a<ul><li>b</li></ul></li></ul>')).toBe('- a\n  - b');
  });

  it('writes links as text (url), tel links as text (number), and quotes', () => {
    expect(wa('<p>Lihat <a href="https://toko.id">toko kami</a> atau <a href="tel:+628123">telepon</a></p>')).toBe('Lihat toko kami (https://toko.id) atau telepon (+628123)');
    expect(wa('<p><a href="https://toko.id">https://toko.id</a></p>')).toBe('https://toko.id');
    expect(wa('<p><a href="javascript:alert(1)">klik</a></p>')).toBe('klik');
    expect(wa('<blockquote>kutipan</blockquote><h2>Judul</h2>')).toBe('> kutipan\n*Judul*');
  });

  it('decodes entities and keeps the placeholders', () => {
    expect(wa('<p>A &amp; B &lt;3 &quot;{name}&quot; &#39;{phoneNumber}&#39;</p>')).toBe('A & B <3 "{name}" \'{phoneNumber}\'');
  });
});
