-- Outcomes at a glance: delivered and read beside success and fail, per WIB day (UTC+7) for everyone and per
-- member (message_log_days), and per account (whatsapp_days, new). A message counts as delivered once its
-- delivery_status is 'delivered' or 'read', and as read once it is 'read'; the counters are a function of the
-- rows as they stand, so a repeated or late status (which never moves a row back) cannot count twice. The day
-- is the day of the send, so a day's delivered and read never exceed its successful sends.
ALTER TABLE `message_log_days` ADD `delivered` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE `message_log_days` ADD `read` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
INSERT INTO `message_log_days` (`day`, `user_id`, `shard`, `delivered`, `read`)
SELECT CAST((`created_at` + 25200000) / 86400000 AS INTEGER), 0, 0, count(*), sum(`delivery_status` = 'read')
FROM `message_logs` WHERE `delivery_status` IN ('delivered', 'read') GROUP BY 1
ON CONFLICT (`user_id`, `day`, `shard`) DO UPDATE SET `delivered` = excluded.`delivered`, `read` = excluded.`read`;
--> statement-breakpoint
INSERT INTO `message_log_days` (`day`, `user_id`, `shard`, `delivered`, `read`)
SELECT CAST((`created_at` + 25200000) / 86400000 AS INTEGER), `user_id`, 0, count(*), sum(`delivery_status` = 'read')
FROM `message_logs` WHERE `delivery_status` IN ('delivered', 'read') GROUP BY 1, 2
ON CONFLICT (`user_id`, `day`, `shard`) DO UPDATE SET `delivered` = excluded.`delivered`, `read` = excluded.`read`;
--> statement-breakpoint
CREATE TABLE `whatsapp_days` (
	`whatsapp_id` integer NOT NULL,
	`day` integer NOT NULL,
	`success` integer NOT NULL DEFAULT 0,
	`fail` integer NOT NULL DEFAULT 0,
	`delivered` integer NOT NULL DEFAULT 0,
	`read` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`whatsapp_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `whatsapp_days` (`whatsapp_id`, `day`, `success`, `fail`, `delivered`, `read`)
SELECT `whatsapp_id`, CAST((`created_at` + 25200000) / 86400000 AS INTEGER), sum(`success` = 1), sum(`success` <> 1),
	coalesce(sum(`delivery_status` IN ('delivered', 'read')), 0), coalesce(sum(`delivery_status` IS 'read'), 0)
FROM `message_logs` WHERE `whatsapp_id` IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
DROP TRIGGER `message_log_days_ai`;
--> statement-breakpoint
DROP TRIGGER `message_log_days_au`;
--> statement-breakpoint
DROP TRIGGER `message_log_days_ad`;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_ai` AFTER INSERT ON `message_logs` BEGIN
	INSERT INTO message_log_days (day, user_id, shard, success, fail, income, delivered, read)
	VALUES (CAST((new.created_at + 25200000) / 86400000 AS INTEGER), 0, 0, new.success = 1, new.success <> 1, new.income,
			coalesce(new.delivery_status IN ('delivered', 'read'), 0), new.delivery_status IS 'read'),
		(CAST((new.created_at + 25200000) / 86400000 AS INTEGER), new.user_id, 0, new.success = 1, new.success <> 1, new.income,
			coalesce(new.delivery_status IN ('delivered', 'read'), 0), new.delivery_status IS 'read')
	ON CONFLICT (user_id, day, shard) DO UPDATE SET success = success + excluded.success, fail = fail + excluded.fail, income = income + excluded.income,
		delivered = delivered + excluded.delivered, read = read + excluded.read;
	INSERT INTO whatsapp_days (whatsapp_id, day, success, fail, delivered, read)
	SELECT new.whatsapp_id, CAST((new.created_at + 25200000) / 86400000 AS INTEGER), new.success = 1, new.success <> 1,
		coalesce(new.delivery_status IN ('delivered', 'read'), 0), new.delivery_status IS 'read'
	WHERE new.whatsapp_id IS NOT NULL
	ON CONFLICT (whatsapp_id, day) DO UPDATE SET success = success + excluded.success, fail = fail + excluded.fail,
		delivered = delivered + excluded.delivered, read = read + excluded.read;
END;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_au` AFTER UPDATE OF success, income, delivery_status, whatsapp_id ON `message_logs`
WHEN old.success IS NOT new.success OR old.income IS NOT new.income OR old.delivery_status IS NOT new.delivery_status OR old.whatsapp_id IS NOT new.whatsapp_id BEGIN
	UPDATE message_log_days SET success = success - (old.success = 1) + (new.success = 1), fail = fail - (old.success <> 1) + (new.success <> 1),
		income = income - old.income + new.income,
		delivered = delivered - coalesce(old.delivery_status IN ('delivered', 'read'), 0) + coalesce(new.delivery_status IN ('delivered', 'read'), 0),
		read = read - (old.delivery_status IS 'read') + (new.delivery_status IS 'read')
	WHERE day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER) AND user_id IN (0, old.user_id) AND shard = 0;
	UPDATE whatsapp_days SET success = success - (old.success = 1), fail = fail - (old.success <> 1),
		delivered = delivered - coalesce(old.delivery_status IN ('delivered', 'read'), 0), read = read - (old.delivery_status IS 'read')
	WHERE whatsapp_id = old.whatsapp_id AND day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER);
	INSERT INTO whatsapp_days (whatsapp_id, day, success, fail, delivered, read)
	SELECT new.whatsapp_id, CAST((new.created_at + 25200000) / 86400000 AS INTEGER), new.success = 1, new.success <> 1,
		coalesce(new.delivery_status IN ('delivered', 'read'), 0), new.delivery_status IS 'read'
	WHERE new.whatsapp_id IS NOT NULL
	ON CONFLICT (whatsapp_id, day) DO UPDATE SET success = success + excluded.success, fail = fail + excluded.fail,
		delivered = delivered + excluded.delivered, read = read + excluded.read;
END;
--> statement-breakpoint
CREATE TRIGGER `message_log_days_ad` AFTER DELETE ON `message_logs` BEGIN
	UPDATE message_log_days SET success = success - (old.success = 1), fail = fail - (old.success <> 1), income = income - old.income,
		delivered = delivered - coalesce(old.delivery_status IN ('delivered', 'read'), 0), read = read - (old.delivery_status IS 'read')
	WHERE day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER) AND user_id IN (0, old.user_id) AND shard = 0;
	UPDATE whatsapp_days SET success = success - (old.success = 1), fail = fail - (old.success <> 1),
		delivered = delivered - coalesce(old.delivery_status IN ('delivered', 'read'), 0), read = read - (old.delivery_status IS 'read')
	WHERE whatsapp_id = old.whatsapp_id AND day = CAST((old.created_at + 25200000) / 86400000 AS INTEGER);
END;
