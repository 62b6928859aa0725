import { useEffect, useState } from 'react';

/**
 * A search box's text kept with its address value: what is typed stays until the address changes (a
 * search applied, back and forward, a link, a reload), and then the box shows the address's value.
 */
export function useAddressText(value: string): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return [text, setText];
}
