-- Retries with a policy (engine/retry.ts): a number's attempts at its latest message, the last failure, when
-- a failed send may be tried again, and when the number failed for good ('Gagal permanen'); settings gain
-- 'Maks. Percobaan'.
ALTER TABLE `phone_numbers` ADD `send_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `phone_numbers` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `phone_numbers` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `phone_numbers` ADD `last_failed_at` integer;--> statement-breakpoint
ALTER TABLE `phone_numbers` ADD `failed_at` integer;--> statement-breakpoint
ALTER TABLE `settings` ADD `max_attempts` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
CREATE INDEX `phone_numbers_retry_idx` ON `phone_numbers` (`next_attempt_at`) WHERE `next_attempt_at` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `phone_numbers_failed_idx` ON `phone_numbers` (`id`) WHERE `failed_at` IS NOT NULL;
