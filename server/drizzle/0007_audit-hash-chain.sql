-- The audit trail as a hash chain (docs/audit-trail.md): each row's hash is SHA-256 of the
-- previous row's hash followed by the row's canonical text, so an edited, removed or inserted
-- row breaks every later link. The trigger sets both columns on every insert, whatever the
-- caller sent, under a transaction-scoped advisory lock: concurrent writers take turns, the id is
-- drawn under the lock (so id order is chain order) and the lock is held until commit (so no
-- writer links to a row that is not yet visible).
CREATE FUNCTION audit_log_canonical(r audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT ((to_jsonb(r) - 'hash' - 'prev_hash' - 'at')
    || jsonb_build_object('at_us', (extract(epoch FROM r.at) * 1000000)::bigint))::text
$$;
--> statement-breakpoint
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7243001);
  NEW.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  NEW.prev_hash := coalesce(
    (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1),
    repeat('0', 64));
  NEW.hash := encode(sha256(convert_to(NEW.prev_hash || audit_log_canonical(NEW), 'UTF8')), 'hex');
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Rows written before the chain existed are chained once, in id order.
ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete;
--> statement-breakpoint
DO $$
DECLARE
  r audit_log;
  previous text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
    UPDATE audit_log
      SET prev_hash = previous,
          hash = encode(sha256(convert_to(previous || audit_log_canonical(r), 'UTF8')), 'hex')
      WHERE id = r.id
      RETURNING hash INTO previous;
  END LOOP;
END;
$$;
--> statement-breakpoint
ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update_delete;
--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
