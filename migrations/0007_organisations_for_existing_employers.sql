-- Every existing employer gets an organisation of their own, named after their email's domain
-- (a person's name never stands in for an organisation's), unverified until proven. Their
-- briefs, ratings and certificates move to it; certificates already issued stay active.
INSERT INTO `organisations` (`id`, `name`, `website_url`, `domains`, `verification`, `created_at`)
SELECT 'org_' || `id`, substr(`email`, instr(`email`, '@') + 1), NULL,
       json_array(substr(`email`, instr(`email`, '@') + 1)), 'unverified', `created_at`
FROM `users` WHERE `role` = 'employer' AND `organisation_id` IS NULL;
--> statement-breakpoint
UPDATE `users` SET `organisation_id` = 'org_' || `id` WHERE `role` = 'employer' AND `organisation_id` IS NULL;
--> statement-breakpoint
UPDATE `briefs` SET `organisation_id` = (SELECT `organisation_id` FROM `users` WHERE `users`.`id` = `briefs`.`employer_id`) WHERE `organisation_id` IS NULL;
--> statement-breakpoint
UPDATE `employer_ratings` SET `organisation_id` = (SELECT `organisation_id` FROM `briefs` WHERE `briefs`.`id` = `employer_ratings`.`brief_id`) WHERE `organisation_id` IS NULL;
--> statement-breakpoint
-- Credentials issued so far named the rating person: record what was signed, and mark them so
-- they are re-signed under the organisation when that person corrects their name or is erased.
UPDATE `certificates` SET
  `organisation_id` = (SELECT `organisation_id` FROM `briefs` WHERE `briefs`.`id` = `certificates`.`brief_id`),
  `signed_organisation_name` = (SELECT `name` FROM `users` WHERE `users`.`id` = `certificates`.`employer_id`),
  `signed_by_person` = 1,
  `earned_at` = `issued_at`
WHERE `organisation_id` IS NULL;
