-- Sends per WIB day (UTC+7), for everyone (user_id 0) and per member, so today's figures, a member's
-- income today and the daily chart read a few rows instead of counting the day's log. Kept exact by
-- triggers on the log: an insert adds its outcome, a changed outcome or income (a Cloud API delivery
-- that failed) moves it, a delete takes it away. `shard` is always 0 here (PostgreSQL spreads writers).
CREATE TABLE `message_log_days` (
	`day` integer NOT NULL,
	`user_id` integer NOT NULL,
	`shard` integer NOT NULL DEFAULT 0,
	`success` integer NOT NULL DEFAULT 0,
	`fail` integer NOT NULL DEFAULT 0,
	`income` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`user_id`, `day`, `shard`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `message_log_days` (`day`, `user_id`, `shard`, `success`, `fail`, `income`)
SELECT CAST((`created_at` + 25200000) / 86400000 AS INTEGER), 0, 0, sum(`success` = 1), sum(`success` <> 1), sum(`income`)
FROM `message_logs` GROUP BY 1;
--> statement-breakpoint
INSERT INTO `message_log_days` (`day`, `user_id`, `shard`, `success`, `fail`, `income`)
SELECT CAST((`created_at` + 25200000) / 86400000 AS INTEGER), `user_id`, 0, sum(`success` = 1), sum(`success` <> 1), sum(`income`)
FROM `message_logs` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_ai` AFTER INSERT ON `message_logs` BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income)
	VALUES (CAST((new.created_at + 25200000) / 86400000 AS INTEGER), 0, 0, new.success = 1, new.success <> 1, new.income),
		(CAST((new.created_at + 25200000) / 86400000 AS INTEGER), new.user_id, 0, new.success = 1, new.success <> 1, new.income)
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = success + excluded.success, fail = fail + excluded.fail, income = income + excluded.income;
END;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_au` AFTER UPDATE OF success, income ON `message_logs`
WHEN old.success IS NOT new.success OR old.income IS NOT new.income BEGIN
	UPDATE message_log_days SET success = success - (old.success = 1) + (new.success = 1), fail = fail - (old.success <> 1) + (new.success <> 1),
		income = income - old.income + new.income
	WHERE day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER) AND user_id IN (0, old.user_id) AND shard = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_ad` AFTER DELETE ON `message_logs` BEGIN
	UPDATE message_log_days SET success = success - (old.success = 1), fail = fail - (old.success <> 1), income = income - old.income
	WHERE day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER) AND user_id IN (0, old.user_id) AND shard = 0;
END;
