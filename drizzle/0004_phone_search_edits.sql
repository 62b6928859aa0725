-- Bumped by every change of a number or a name, so cached search results know when they are stale.
ALTER TABLE `phone_list_state` ADD `edits` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `phone_list_au_text` AFTER UPDATE OF number, name ON `phone_numbers`
WHEN old.number IS NOT new.number OR old.name IS NOT new.name BEGIN
	UPDATE phone_list_state SET edits = edits + 1 WHERE id = 1;
END;
