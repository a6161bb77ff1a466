-- Organisation names now fold Latin small capitals ("ᴅemo", "ʜɪʀɪɴɢ") to their Latin letters before
-- the confusable skeleton (issue 51): every stored key is re-computed by the cron
-- (backfillOrganisationNameKeys), which finds the verified rows by this NULL.
UPDATE `organisations` SET `name_key` = NULL;
