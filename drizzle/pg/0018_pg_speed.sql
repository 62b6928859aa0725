-- Room on every page for the engine's counters. Each tick updates every sending account's row (whatsapps)
-- and every paid member's row (users) without touching an indexed column, so the new row versions can
-- stay on their page (a HOT update: no new entry in any index, the trigram GIN ones included) as long as
-- the page has room. Full pages (fillfactor 100) sent every update to another page with an entry in all
-- eight indexes of whatsapps: at 1,000 accounts that was most of a tick's time. Pages written from now
-- on keep half free; rows on older pages move to such pages at their next update.
ALTER TABLE "whatsapps" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "users" SET (fillfactor = 50);
