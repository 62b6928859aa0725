ALTER TABLE `phone_numbers` ADD `line_type` text;--> statement-breakpoint
CREATE INDEX `phone_numbers_line_type_idx` ON `phone_numbers` (`line_type`);--> statement-breakpoint
ALTER TABLE `settings` ADD `default_country` text DEFAULT 'ID' NOT NULL;--> statement-breakpoint
-- Rows stored before numbering plans: re-normalised once at start-up (server/src/phonenumbers/renormalize.ts).
UPDATE `phone_numbers` SET `line_type` = 'pending';
