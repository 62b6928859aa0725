ALTER TABLE "message_logs" ADD COLUMN "wa_message_id" text;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "status_at" bigint;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "wa_template_name" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "wa_template_language" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "wa_template_params" text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "gateway" text DEFAULT 'simulator' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_phone_number_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_waba_id" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "cloud_token" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "quality_rating" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "messaging_tier" text;--> statement-breakpoint
CREATE INDEX "message_logs_wa_message_idx" ON "message_logs" USING btree ("wa_message_id");