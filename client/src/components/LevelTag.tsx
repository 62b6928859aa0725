import { Tag } from 'antd';
import { readableTextOn } from '../lib/contrast';

/**
 * A level's name on its configured colour. antd writes white on any colour, which 'Gold' (#B8860B) reads
 * at 3.25:1; the text here is white or the colour's own hue, darker, at 4.5:1 or more (lib/contrast).
 */
export function LevelTag({ name, color }: { name: string; color: string | null | undefined }) {
  const text = color ? readableTextOn(color) : null;
  return (
    <Tag color={color ?? undefined} style={text ? { color: text } : undefined}>
      {name}
    </Tag>
  );
}
