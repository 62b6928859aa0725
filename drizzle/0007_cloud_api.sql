ALTER TABLE `message_logs` ADD `wa_message_id` text;--> statement-breakpoint
ALTER TABLE `message_logs` ADD `delivery_status` text;--> statement-breakpoint
ALTER TABLE `message_logs` ADD `status_at` integer;--> statement-breakpoint
ALTER TABLE `message_logs` ADD `delivery_error` text;--> statement-breakpoint
CREATE INDEX `message_logs_wa_message_idx` ON `message_logs` (`wa_message_id`);--> statement-breakpoint
ALTER TABLE `message_templates` ADD `wa_template_name` text;--> statement-breakpoint
ALTER TABLE `message_templates` ADD `wa_template_language` text;--> statement-breakpoint
ALTER TABLE `message_templates` ADD `wa_template_params` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `gateway` text DEFAULT 'simulator' NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `cloud_phone_number_id` text;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `cloud_waba_id` text;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `cloud_token` text;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `quality_rating` text;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `messaging_tier` text;