import { useEffect, useState } from 'react';

export const MOBILE_BREAKPOINT = 768;
export const DESKTOP_BREAKPOINT = 1024;

export type ViewportBand = 'mobile' | 'tablet' | 'desktop';

export function bandOf(width: number): ViewportBand {
  if (width < MOBILE_BREAKPOINT) return 'mobile';
  return width < DESKTOP_BREAKPOINT ? 'tablet' : 'desktop';
}

export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
