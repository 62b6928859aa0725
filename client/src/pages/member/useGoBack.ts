import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Back one page, or to `fallback` when the screen was opened directly (no page to go back to). */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
