-- The phone list's search data in a table of its own, filled after a bulk insert instead of inside it.
-- The two trigram GIN indexes on phone_numbers were two thirds of a large import's time, and every
-- non-HOT engine update of a number (the record of a send) wrote entries into both. phone_search holds
-- each number's number and name under trigram indexes; the rows of a large insert (more than 2,000 in
-- one statement: an import) are listed as an id range in phone_search_todo and copied over afterwards in
-- steps (server/src/db/pg/search.ts), while a search reads phone_search plus the rows of the ranges still
-- listed, so it stays exact meanwhile. Small inserts, edits of a number or name and
-- deletes keep phone_search current as they commit.
CREATE TABLE "phone_search" (
	"id" integer PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "phone_search_number_trgm" ON "phone_search" USING gin ("number" public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "phone_search_name_trgm" ON "phone_search" USING gin ("name" public.gin_trgm_ops);
--> statement-breakpoint
CREATE TABLE "phone_search_todo" (
	"id" serial PRIMARY KEY NOT NULL,
	"lo" integer NOT NULL,
	"hi" integer NOT NULL
);
--> statement-breakpoint
-- The numbers already listed are copied over like an import's.
INSERT INTO "phone_search_todo" ("lo", "hi") SELECT min("id"), max("id") FROM "phone_numbers" HAVING count(*) > 0;
--> statement-breakpoint
CREATE FUNCTION phone_search_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	first_id integer;
	last_id integer;
BEGIN
	SELECT count(*), min(id), max(id) INTO n, first_id, last_id FROM new_rows;
	IF n = 0 THEN
		RETURN NULL;
	ELSIF n <= 2000 THEN
		INSERT INTO phone_search (id, number, name) SELECT id, number, name FROM new_rows
		ON CONFLICT (id) DO UPDATE SET number = excluded.number, name = excluded.name;
	ELSE
		INSERT INTO phone_search_todo (lo, hi) VALUES (first_id, last_id);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_search_ai AFTER INSERT ON phone_numbers REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_search_inserted();
--> statement-breakpoint
-- An edit writes the row whether or not it was copied yet: the copy's ON CONFLICT DO NOTHING and this
-- upsert meet on the primary key, so whichever comes second leaves the edited text.
CREATE FUNCTION phone_search_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO phone_search (id, number, name) VALUES (NEW.id, NEW.number, NEW.name)
	ON CONFLICT (id) DO UPDATE SET number = excluded.number, name = excluded.name;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_search_au AFTER UPDATE OF number, name ON phone_numbers FOR EACH ROW
WHEN (OLD.number IS DISTINCT FROM NEW.number OR OLD.name IS DISTINCT FROM NEW.name)
EXECUTE FUNCTION phone_search_updated();
--> statement-breakpoint
-- A delete waits for the copy steps running (each holds this lock shared), so no step can write back a
-- row it read before the delete; a step starting later no longer sees the row.
CREATE FUNCTION phone_search_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock('phone_search'::regclass::oid::bigint);
	DELETE FROM phone_search s USING old_rows o WHERE s.id = o.id;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_search_ad AFTER DELETE ON phone_numbers REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION phone_search_deleted();
--> statement-breakpoint
DROP INDEX "phone_numbers_number_trgm";
--> statement-breakpoint
DROP INDEX "phone_numbers_name_trgm";
--> statement-breakpoint
-- A prefix of phone_numbers_type_id_idx (line_type, id).
DROP INDEX "phone_numbers_line_type_idx";
