-- Two-factor sign-in (auth/twofactor.ts): the TOTP secret encrypted under the secret key, when it was turned on, the last time step used (no code twice).
ALTER TABLE "users" ADD COLUMN "totp_secret" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" bigint;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_hash_uq" ON "recovery_codes" USING btree ("user_id","code_hash");
--> statement-breakpoint
-- 'Pendaftaran': open, referral or closed; NULL until an admin chooses (the install's default applies: settings/signup.ts).
ALTER TABLE "settings" ADD COLUMN "signup_mode" text;
