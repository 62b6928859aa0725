-- Idempotency-Key of a bonus or withdrawal request: a retried request finds the row it already made.
ALTER TABLE `bonuses` ADD `request_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bonuses_request_key_idx` ON `bonuses` (`admin_id`,`request_key`);--> statement-breakpoint
ALTER TABLE `withdrawals` ADD `request_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_request_key_idx` ON `withdrawals` (`user_id`,`request_key`);
