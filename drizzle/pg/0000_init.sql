CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"target_user_id" integer,
	"action" text NOT NULL,
	"details" text NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bonuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"admin_id" integer,
	"nominal" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generator_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"generator_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generators" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"whatsapp_id" integer,
	"start_number" text NOT NULL,
	"end_number" text NOT NULL,
	"current_number" text,
	"b_insert" integer DEFAULT 0 NOT NULL,
	"interval_min" integer DEFAULT 1 NOT NULL,
	"interval_max" integer DEFAULT 2 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"state" text,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "levels" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"blast_fee" integer NOT NULL,
	"requirement_blast" integer NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer,
	"user_id" integer NOT NULL,
	"phone_number_id" integer,
	"number" text NOT NULL,
	"template_id" integer,
	"success" smallint NOT NULL,
	"error_code" text,
	"income" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"media" text,
	"text" text DEFAULT '' NOT NULL,
	"text_wa" text DEFAULT '' NOT NULL,
	"button" text DEFAULT '[]' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"count_use" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"reason" text NOT NULL,
	"whatsapp_id" integer,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"in_use" integer DEFAULT 0 NOT NULL,
	"claimed_by" integer,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"last_sent" bigint,
	"line_type" text,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxies" (
	"id" serial PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"count_use" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_credits" (
	"id" serial PRIMARY KEY NOT NULL,
	"referrer_id" integer NOT NULL,
	"referred_id" integer NOT NULL,
	"message_log_id" integer,
	"amount" bigint NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revoked_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"interval_min" integer DEFAULT 1 NOT NULL,
	"interval_max" integer DEFAULT 2 NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"bank_names" text DEFAULT 'BCA, MANDIRI, BRI' NOT NULL,
	"colors" text DEFAULT '#2C2C2C, #3E3A32' NOT NULL,
	"referral_percent" integer DEFAULT 0 NOT NULL,
	"info" text DEFAULT '' NOT NULL,
	"recipient_cooldown_hours" integer DEFAULT 24 NOT NULL,
	"default_country" text DEFAULT 'ID' NOT NULL,
	"updated_at" bigint
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"referral_code" text NOT NULL,
	"referred_by" integer,
	"account_bank" text,
	"account_number" text,
	"account_name" text,
	"blast_interval_min" integer,
	"blast_interval_max" integer,
	"blast_fee" integer,
	"total_success" integer DEFAULT 0 NOT NULL,
	"total_fail" integer DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"session_epoch" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validator_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"validator_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"result" text,
	"reason" text,
	"result_name" text
);
--> statement-breakpoint
CREATE TABLE "validators" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"whatsapp_id" integer,
	"file_name" text NOT NULL,
	"file_url" text NOT NULL,
	"b_insert" integer DEFAULT 0 NOT NULL,
	"interval_min" integer DEFAULT 1 NOT NULL,
	"interval_max" integer DEFAULT 2 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"state" text,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapps" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"clientid" text NOT NULL,
	"pushname" text,
	"phonenumber" text,
	"server" text,
	"serialized" text,
	"proxy_id" integer,
	"user_id" integer NOT NULL,
	"state" text,
	"status" text DEFAULT 'idle' NOT NULL,
	"interval" integer,
	"own_interval" smallint DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"suspended" smallint DEFAULT 0 NOT NULL,
	"suspended_count" integer DEFAULT 0 NOT NULL,
	"reconnect_count" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL,
	"updated_at" bigint
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"nominal" bigint NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"updated_by" integer,
	"updated_at" bigint,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generator_results" ADD CONSTRAINT "generator_results_generator_id_generators_id_fk" FOREIGN KEY ("generator_id") REFERENCES "generators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generators" ADD CONSTRAINT "generators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generators" ADD CONSTRAINT "generators_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validator_items" ADD CONSTRAINT "validator_items_validator_id_validators_id_fk" FOREIGN KEY ("validator_id") REFERENCES "validators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validators" ADD CONSTRAINT "validators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validators" ADD CONSTRAINT "validators_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_proxy_id_proxies_id_fk" FOREIGN KEY ("proxy_id") REFERENCES "proxies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "bonuses_user_idx" ON "bonuses" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "generator_results_uq" ON "generator_results" USING btree ("generator_id","number");--> statement-breakpoint
CREATE INDEX "generators_user_idx" ON "generators" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "levels_requirement_idx" ON "levels" USING btree ("requirement_blast");--> statement-breakpoint
CREATE INDEX "message_logs_user_time_idx" ON "message_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "message_logs_time_idx" ON "message_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_logs_whatsapp_idx" ON "message_logs" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "message_logs_number_idx" ON "message_logs" USING btree ("number","created_at");--> statement-breakpoint
CREATE INDEX "message_templates_pick_idx" ON "message_templates" USING btree ("status","count_use");--> statement-breakpoint
CREATE UNIQUE INDEX "opt_outs_number_uq" ON "opt_outs" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_number_uq" ON "phone_numbers" USING btree ("number");--> statement-breakpoint
CREATE INDEX "phone_numbers_target_idx" ON "phone_numbers" USING btree ("status","in_use","last_sent");--> statement-breakpoint
CREATE INDEX "phone_numbers_line_type_idx" ON "phone_numbers" USING btree ("line_type");--> statement-breakpoint
CREATE UNIQUE INDEX "proxies_value_uq" ON "proxies" USING btree ("value");--> statement-breakpoint
CREATE INDEX "proxies_status_use_idx" ON "proxies" USING btree ("status","count_use");--> statement-breakpoint
CREATE INDEX "referral_credits_referrer_idx" ON "referral_credits" USING btree ("referrer_id","referred_id");--> statement-breakpoint
CREATE INDEX "revoked_tokens_expires_idx" ON "revoked_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_referral_code_uq" ON "users" USING btree ("referral_code");--> statement-breakpoint
CREATE INDEX "users_referred_by_idx" ON "users" USING btree ("referred_by");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role","id");--> statement-breakpoint
CREATE UNIQUE INDEX "validator_items_seq_uq" ON "validator_items" USING btree ("validator_id","seq");--> statement-breakpoint
CREATE INDEX "validator_items_result_idx" ON "validator_items" USING btree ("validator_id","result");--> statement-breakpoint
CREATE INDEX "validators_user_idx" ON "validators" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_device_uq" ON "whatsapps" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "whatsapps_clientid_idx" ON "whatsapps" USING btree ("clientid");--> statement-breakpoint
CREATE INDEX "whatsapps_user_idx" ON "whatsapps" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "whatsapps_state_idx" ON "whatsapps" USING btree ("state");--> statement-breakpoint
CREATE INDEX "whatsapps_phone_idx" ON "whatsapps" USING btree ("phonenumber");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "withdrawals_time_idx" ON "withdrawals" USING btree ("created_at");