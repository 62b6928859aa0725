import { describe, expect, it } from 'vitest';
import { contrastRatio, readableTextOn } from './contrast';

describe('readableTextOn: a level tag’s text on its colour', () => {
  it('keeps white where white reads at 4.5:1', () => {
    expect(readableTextOn('#2C2C2C')).toBe('#FFFFFF');
    expect(readableTextOn('#3E3A32')).toBe('#FFFFFF');
  });

  it("darkens Gold's own hue instead of white at 3.25:1", () => {
    expect(contrastRatio('#FFFFFF', '#B8860B')).toBeCloseTo(3.25, 1);
    const text = readableTextOn('#B8860B')!;
    expect(contrastRatio(text, '#B8860B')).toBeGreaterThanOrEqual(4.5);
    // Same hue: red over green over blue, as in #B8860B.
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16)) as [number, number, number];
    expect(r).toBeGreaterThan(g);
    expect(g).toBeGreaterThan(b);
  });

  it('reads at 4.5:1 on any colour, light ones included', () => {
    for (const bg of ['#FFD700', '#FFFFFF', '#87CEEB', '#FF4D4F', '#52C41A', '#fa0', '#808080']) {
      expect(contrastRatio(readableTextOn(bg)!, bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('leaves a colour name to antd', () => {
    expect(readableTextOn('gold')).toBeNull();
  });
});
