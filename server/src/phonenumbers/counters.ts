/**
 * Figures of the phone-number list (total, active, blasted; active numbers sent to after a time),
 * kept by the store without counting millions of rows per request. The SQLite machinery (counter
 * tables, triggers, folding of imported rows) lives in ../db/sqlite/phonenumbers.ts.
 */
export { activeSentAfter, foldNewRows, phoneListFigures, SLOT_MS, type PhoneListFigures } from '../db/phonelist';
