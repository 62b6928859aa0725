-- Maintained figures of the phone-number list, so no request or engine timer counts millions of rows.
-- Rows with id <= counted_upto are counted; newer rows (imports insert without triggers, to stay fast)
-- are folded in by server/src/phonenumbers/counters.ts before any read. Triggers keep counted rows exact.
CREATE TABLE `phone_list_state` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`counted_upto` integer NOT NULL,
	`total` integer NOT NULL,
	`active` integer NOT NULL,
	`blasted` integer NOT NULL
);
--> statement-breakpoint
-- Rows per block of 1,024 ids: a page number becomes a seek to its block plus at most 1,024 steps.
CREATE TABLE `phone_id_blocks` (
	`block` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
-- Active rows per 10-second slot of last_sent: the engine's progress sums slots instead of rows.
CREATE TABLE `phone_sent_slots` (
	`slot` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `phone_list_state` (`id`, `counted_upto`, `total`, `active`, `blasted`)
SELECT 1, coalesce(max(`id`), 0), count(*), coalesce(sum(`status` = 'active'), 0), coalesce(sum(`count_success` > 0), 0) FROM `phone_numbers`;
--> statement-breakpoint
INSERT INTO `phone_id_blocks` (`block`, `n`) SELECT `id` >> 10, count(*) FROM `phone_numbers` GROUP BY 1;
--> statement-breakpoint
INSERT INTO `phone_sent_slots` (`slot`, `n`)
SELECT `last_sent` / 10000, count(*) FROM `phone_numbers` WHERE `status` = 'active' AND `last_sent` IS NOT NULL GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `phone_list_ad` AFTER DELETE ON `phone_numbers`
WHEN old.id <= (SELECT counted_upto FROM phone_list_state WHERE id = 1) BEGIN
	UPDATE phone_list_state SET total = total - 1, active = active - (old.status = 'active'),
		blasted = blasted - (old.count_success > 0) WHERE id = 1;
	UPDATE phone_id_blocks SET n = n - 1 WHERE block = old.id >> 10;
	UPDATE phone_sent_slots SET n = n - 1 WHERE slot = old.last_sent / 10000 AND old.status = 'active';
END;
--> statement-breakpoint
CREATE TRIGGER `phone_list_au_counts` AFTER UPDATE OF status, count_success ON `phone_numbers`
WHEN (old.status IS NOT new.status OR (old.count_success > 0) IS NOT (new.count_success > 0))
	AND old.id <= (SELECT counted_upto FROM phone_list_state WHERE id = 1) BEGIN
	UPDATE phone_list_state SET active = active + (new.status = 'active') - (old.status = 'active'),
		blasted = blasted + (new.count_success > 0) - (old.count_success > 0) WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `phone_list_au_slots` AFTER UPDATE OF status, last_sent ON `phone_numbers`
WHEN (old.status IS NOT new.status OR old.last_sent / 10000 IS NOT new.last_sent / 10000)
	AND ((old.status = 'active' AND old.last_sent IS NOT NULL) OR (new.status = 'active' AND new.last_sent IS NOT NULL))
	AND old.id <= (SELECT counted_upto FROM phone_list_state WHERE id = 1) BEGIN
	UPDATE phone_sent_slots SET n = n - 1 WHERE slot = old.last_sent / 10000 AND old.status = 'active';
	INSERT INTO phone_sent_slots (slot, n) SELECT new.last_sent / 10000, 1
		WHERE new.status = 'active' AND new.last_sent IS NOT NULL
		ON CONFLICT (slot) DO UPDATE SET n = n + 1;
END;
