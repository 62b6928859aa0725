-- The Cloud tier guard counts an account's recipients of the last 24 hours: a range of this index, not the account's whole log.
DROP INDEX `message_logs_whatsapp_idx`;--> statement-breakpoint
CREATE INDEX `message_logs_whatsapp_idx` ON `message_logs` (`whatsapp_id`,`created_at`);
