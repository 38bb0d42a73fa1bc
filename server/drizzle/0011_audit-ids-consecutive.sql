-- The chain trigger (migration 0007) draws each entry's id under its lock, so id order is chain
-- order; the column's own default drew one more before it, so ids went 2, 4, 6, … and an auditor
-- reads the gaps as removed entries. Only the trigger draws now: ids are consecutive, and a gap
-- is an entry whose transaction rolled back (it never existed; 'Verify trail' proves the rest).
ALTER TABLE "audit_log" ALTER COLUMN "id" DROP DEFAULT;
