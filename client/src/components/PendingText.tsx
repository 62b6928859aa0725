import { holdFocus } from '../lib/rowFocus';

/** A row action's 'Deleting...' / 'Mengirim...' in place of its button; it keeps the keyboard focus the button had (lib/rowFocus). */
export function PendingText({ children }: { children: React.ReactNode }) {
  return (
    <span tabIndex={-1} data-row-pending="" ref={holdFocus} style={{ outline: 'none' }}>
      {children}
    </span>
  );
}
