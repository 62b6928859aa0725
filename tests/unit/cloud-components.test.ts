import { describe, expect, it } from 'vitest';
import { templateComponents } from '../../server/src/gateway/cloud/cloud';
import { composeMessage, STOP_BUTTON_PREFIX } from '../../server/src/engine/templates';
import type { RawTemplate } from '../../server/src/engine/store';

const template = (over: Partial<RawTemplate> = {}): RawTemplate => ({
  id: 7,
  media: null,
  text: '<p>Promo</p>',
  text_wa: 'Promo untuk {name}',
  button: '[]',
  count_use: 0,
  wa_template_name: 'promo_blast',
  wa_template_language: 'id',
  wa_template_params: JSON.stringify(['{name}']),
  ...over,
});

const target = { name: 'Budi', number: '6281234500099' };

describe("the approved template's components of a Cloud API send", () => {
  it('fills the body parameters only, for a template without media or buttons', () => {
    expect(templateComponents(composeMessage(template(), target), 'https://blast.example.com')).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Budi' }] },
    ]);
  });

  it("sends the media as the header's link at the public address, by its kind", () => {
    const image = composeMessage(template({ media: '/uploads/promo.JPG' }), target);
    expect(templateComponents(image, 'https://blast.example.com/')[0]).toEqual({
      type: 'header',
      parameters: [{ type: 'image', image: { link: 'https://blast.example.com/uploads/promo.JPG' } }],
    });
    const video = composeMessage(template({ media: '/uploads/clip.mp4' }), target);
    expect(templateComponents(video, 'https://blast.example.com')[0]).toMatchObject({ parameters: [{ type: 'video', video: { link: 'https://blast.example.com/uploads/clip.mp4' } }] });
    const pdf = composeMessage(template({ media: '/uploads/katalog.pdf' }), target);
    expect(templateComponents(pdf, 'https://blast.example.com')[0]).toMatchObject({ parameters: [{ type: 'document' }] });
    // Without PUBLIC_URL Graph could not download it: no header is sent.
    expect(templateComponents(image, null).map((c) => c.type)).toEqual(['body']);
  });

  it('gives each quick reply, the stop button included, its console id as payload at its position', () => {
    const buttons = JSON.stringify([
      { id: 1, title: 'Lihat', type: 'url_button', url: 'https://toko.example.com' },
      { id: 2, title: 'Info', type: 'reply_button' },
      { id: 3, title: 'Berhenti', type: 'stop_button' },
    ]);
    const parts = templateComponents(composeMessage(template({ button: buttons }), target), null);
    expect(parts.filter((c) => c.type === 'button')).toEqual([
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'reply_button:7:2' }] },
      { type: 'button', sub_type: 'quick_reply', index: '2', parameters: [{ type: 'payload', payload: `${STOP_BUTTON_PREFIX}7:3` }] },
    ]);
  });
});
