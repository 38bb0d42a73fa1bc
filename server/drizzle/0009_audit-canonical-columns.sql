-- The audit row's canonical text (migration 0007) built from its columns by name: the same jsonb,
-- so the same text and hash for every row already chained, read about 30% faster than to_jsonb of
-- the whole row less three keys (docs/performance-notes.md). A column added to audit_log must be
-- added here too; server/audit/audit-log.test.ts fails until it is.
CREATE OR REPLACE FUNCTION audit_log_canonical(r audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', r.id,
    'actor_id', r.actor_id,
    'actor_email', r.actor_email,
    'action', r.action,
    'entity', r.entity,
    'entity_id', r.entity_id,
    'old_value', r.old_value,
    'new_value', r.new_value,
    'ip', r.ip,
    'at_us', (extract(epoch FROM r.at) * 1000000)::bigint
  )::text
$$;
