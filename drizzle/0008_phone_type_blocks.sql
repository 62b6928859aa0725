-- Rows per line type per block of 1,024 ids: the 'Jenis Nomor' filter counts and pages like the whole list
-- (a seek to the page's block, then at most 1,023 steps on phone_numbers_line_type_idx, whose entries are
-- in id order within a type). Counted rows (id <= counted_upto) are kept exact by the triggers below; newer
-- rows are folded in with the other figures (server/src/db/sqlite/phonenumbers.ts).
CREATE TABLE `phone_type_blocks` (
	`line_type` text NOT NULL,
	`block` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY (`line_type`, `block`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Bumped by every change of a counted row's type, so cached per-type block sums know they are stale.
ALTER TABLE `phone_list_state` ADD `type_edits` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
INSERT INTO `phone_type_blocks` (`line_type`, `block`, `n`)
SELECT coalesce(`line_type`, ''), `id` >> 10, count(*) FROM `phone_numbers`
WHERE `id` <= (SELECT `counted_upto` FROM `phone_list_state` WHERE `id` = 1) GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `phone_types_ad` AFTER DELETE ON `phone_numbers`
WHEN old.id <= (SELECT counted_upto FROM phone_list_state WHERE id = 1) BEGIN
	UPDATE phone_type_blocks SET n = n - 1 WHERE line_type = coalesce(old.line_type, '') AND block = old.id >> 10;
END;
--> statement-breakpoint
CREATE TRIGGER `phone_types_au` AFTER UPDATE OF line_type ON `phone_numbers`
WHEN old.line_type IS NOT new.line_type AND old.id <= (SELECT counted_upto FROM phone_list_state WHERE id = 1) BEGIN
	UPDATE phone_type_blocks SET n = n - 1 WHERE line_type = coalesce(old.line_type, '') AND block = old.id >> 10;
	INSERT INTO phone_type_blocks (line_type, block, n) VALUES (coalesce(new.line_type, ''), new.id >> 10, 1)
		ON CONFLICT (line_type, block) DO UPDATE SET n = n + 1;
	UPDATE phone_list_state SET type_edits = type_edits + 1 WHERE id = 1;
END;
