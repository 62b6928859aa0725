/**
 * Keyboard focus for a table row's action that takes away the control that had focus (a row's Delete, a
 * withdrawal's Terima/Tolak). Without this, focus falls to the page when the button is replaced by
 * 'Deleting...' or 'Mengirim...', or when the row leaves the list.
 *
 * The rule, the same everywhere: while the action runs, focus is on its 'Deleting...' / 'Mengirim...'
 * text (a `PendingText`); afterwards it goes to the same control of the same row, or, when the row is
 * gone, of the row that took its place (else the one before it); on an empty list, to the page's
 * heading. The controls focus may land on carry `data-row-action`. Focus is only moved when it was
 * lost: a person who has gone on elsewhere keeps their place.
 */

export interface RowPlace {
  table: HTMLElement;
  key: string | null;
  index: number;
}

const rowsOf = (table: HTMLElement) => [...table.querySelectorAll<HTMLElement>('tbody > tr.ant-table-row')];

/** The row (antd's `data-row-key`) and place in its table of the element `el`, e.g. the pressed button. */
export function rowPlace(el: Element | null | undefined): RowPlace | null {
  const row = el?.closest<HTMLElement>('tr.ant-table-row');
  const table = row?.closest<HTMLElement>('.ant-table-wrapper');
  if (!row || !table) return null;
  return { table, key: row.dataset.rowKey ?? null, index: rowsOf(table).indexOf(row) };
}

/** Focus is on nothing, on a row's pending text, or still on a dialog that has closed (its `afterClose` runs before it leaves the page). */
function focusLost(): boolean {
  const a = document.activeElement;
  if (!a || a === document.body || !a.isConnected || a.hasAttribute('data-row-pending')) return true;
  if (!a.closest('.ant-modal-wrap')) return false;
  // A browser without checkVisibility: a dialog's button is taken as closing, as only `afterClose` asks then.
  return typeof a.checkVisibility !== 'function' || !a.checkVisibility({ opacityProperty: true, visibilityProperty: true });
}

const findRow = (place: RowPlace) => rowsOf(place.table).find((r) => r.dataset.rowKey === place.key) ?? null;
const actionIn = (row: HTMLElement | null | undefined) => row?.querySelector<HTMLElement>('[data-row-action]:not(:disabled)') ?? null;

function focusHeading() {
  const heading = document.querySelector<HTMLElement>('main h1, main h2, main h3');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}

/** Checks `ready` every 50 ms for up to 10 s (a slow list refetch); gives up quietly. */
function when(ready: () => boolean, then: () => void) {
  const started = Date.now();
  const tick = () => {
    if (ready()) then();
    else if (Date.now() - started < 10_000) setTimeout(tick, 50);
  };
  // After the current render and a closing dialog's own focus restore.
  setTimeout(tick, 0);
}

/** After the row at `place` was deleted: once it has left the list, the next row's (or the previous row's) control, or the heading. */
export function focusAfterRowGone(place: RowPlace | null) {
  if (!place) return;
  when(
    () => !place.table.isConnected || !findRow(place),
    () => {
      if (!focusLost()) return;
      const rows = place.table.isConnected ? rowsOf(place.table) : [];
      const next = actionIn(rows[place.index] ?? rows[place.index - 1]);
      if (next) next.focus();
      else focusHeading();
    },
  );
}

/** After an action on the row at `place` that keeps the row (a decision, a failed delete): its control once it is back. */
export function focusRowAction(place: RowPlace | null) {
  if (!place) return;
  when(
    () => !place.table.isConnected || !findRow(place) || Boolean(actionIn(findRow(place))),
    () => {
      if (!focusLost()) return;
      const action = place.table.isConnected ? actionIn(findRow(place)) : null;
      if (action) action.focus();
      else focusAfterRowGone(place);
    },
  );
}

/** `ref` of a row's 'Deleting...' / 'Mengirim...' text: takes focus from the button it replaced, or from the closing confirm dialog. */
export function holdFocus(el: HTMLElement | null) {
  if (el && (focusLost() || document.activeElement?.closest('.ant-modal-wrap'))) el.focus({ preventScroll: true });
}
