-- Search of the member and WhatsApp-account lists through a trigram index: the text a list searches
-- (name and email; push name, number and client id) is kept in an FTS5 trigram table per list, rowid = the
-- row's id, by the triggers below. A search of 3+ characters is a phrase match there (exactly "contains",
-- ignoring case); shorter ones scan, as trigrams cannot serve them.
CREATE VIRTUAL TABLE `users_search` USING fts5(`text`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `users_search` (`rowid`, `text`) SELECT `id`, `firstname` || ' ' || `lastname` || ' ' || `email` FROM `users`;
--> statement-breakpoint
CREATE TRIGGER `users_search_ai` AFTER INSERT ON `users` BEGIN
	INSERT INTO users_search (rowid, text) VALUES (new.id, new.firstname || ' ' || new.lastname || ' ' || new.email);
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_ad` AFTER DELETE ON `users` BEGIN
	DELETE FROM users_search WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_au` AFTER UPDATE OF firstname, lastname, email ON `users` BEGIN
	UPDATE users_search SET text = new.firstname || ' ' || new.lastname || ' ' || new.email WHERE rowid = new.id;
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `whatsapps_search` USING fts5(`text`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `whatsapps_search` (`rowid`, `text`)
SELECT `id`, coalesce(`pushname`, '') || ' ' || coalesce(`phonenumber`, '') || ' ' || `clientid` FROM `whatsapps`;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_search_ai` AFTER INSERT ON `whatsapps` BEGIN
	INSERT INTO whatsapps_search (rowid, text) VALUES (new.id, coalesce(new.pushname, '') || ' ' || coalesce(new.phonenumber, '') || ' ' || new.clientid);
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_search_ad` AFTER DELETE ON `whatsapps` BEGIN
	DELETE FROM whatsapps_search WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_search_au` AFTER UPDATE OF pushname, phonenumber, clientid ON `whatsapps` BEGIN
	UPDATE whatsapps_search SET text = coalesce(new.pushname, '') || ' ' || coalesce(new.phonenumber, '') || ' ' || new.clientid WHERE rowid = new.id;
END;
