CREATE TABLE "leases" (
	"kind" text NOT NULL,
	"work_id" integer NOT NULL,
	"node" text NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "leases_kind_work_id_pk" PRIMARY KEY("kind","work_id")
);
--> statement-breakpoint
CREATE INDEX "leases_node_idx" ON "leases" USING btree ("node");--> statement-breakpoint
CREATE INDEX "leases_expiry_idx" ON "leases" USING btree ("expires_at");