-- Accounts per member and for everyone (user_id 0), and how many of them are active (connected or sending,
-- not suspended), so the dashboards' connected/disconnected figures read one row instead of counting the
-- accounts. Kept exact by triggers on inserts, deletes and changes of state, suspension or owner.
CREATE TABLE `whatsapp_counts` (
	`user_id` integer NOT NULL,
	`shard` integer NOT NULL DEFAULT 0,
	`total` integer NOT NULL DEFAULT 0,
	`active` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`user_id`, `shard`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `whatsapp_counts` (`user_id`, `shard`, `total`, `active`)
SELECT 0, 0, count(*), coalesce(sum(coalesce(`state`, '') IN ('connected', 'sending') AND `suspended` = 0), 0) FROM `whatsapps`;
--> statement-breakpoint
INSERT INTO `whatsapp_counts` (`user_id`, `shard`, `total`, `active`)
SELECT `user_id`, 0, count(*), sum(coalesce(`state`, '') IN ('connected', 'sending') AND `suspended` = 0) FROM `whatsapps` GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_counts_ai` AFTER INSERT ON `whatsapps` BEGIN
	INSERT INTO whatsapp_counts (user_id, shard, total, active)
	VALUES (0, 0, 1, coalesce(new.state, '') IN ('connected', 'sending') AND new.suspended = 0),
		(new.user_id, 0, 1, coalesce(new.state, '') IN ('connected', 'sending') AND new.suspended = 0)
	ON CONFLICT (user_id, shard) DO UPDATE SET total = total + excluded.total, active = active + excluded.active;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_counts_ad` AFTER DELETE ON `whatsapps` BEGIN
	UPDATE whatsapp_counts SET total = total - 1, active = active - (coalesce(old.state, '') IN ('connected', 'sending') AND old.suspended = 0)
	WHERE user_id IN (0, old.user_id) AND shard = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_counts_au` AFTER UPDATE OF state, suspended, user_id ON `whatsapps`
WHEN old.user_id IS NOT new.user_id
	OR (coalesce(old.state, '') IN ('connected', 'sending') AND old.suspended = 0) IS NOT (coalesce(new.state, '') IN ('connected', 'sending') AND new.suspended = 0) BEGIN
	UPDATE whatsapp_counts SET total = total - 1, active = active - (coalesce(old.state, '') IN ('connected', 'sending') AND old.suspended = 0)
	WHERE user_id IN (0, old.user_id) AND shard = 0;
	INSERT INTO whatsapp_counts (user_id, shard, total, active)
	VALUES (0, 0, 1, coalesce(new.state, '') IN ('connected', 'sending') AND new.suspended = 0),
		(new.user_id, 0, 1, coalesce(new.state, '') IN ('connected', 'sending') AND new.suspended = 0)
	ON CONFLICT (user_id, shard) DO UPDATE SET total = total + excluded.total, active = active + excluded.active;
END;
