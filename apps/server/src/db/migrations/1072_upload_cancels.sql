-- An upload its client cancelled stays cancelled. A chunk whose body the server was still
-- receiving when the DELETE came used to be admitted after it and open the session again, holding
-- its bytes (and one of the account's open uploads) until the idle sweep. The DELETE now leaves a
-- row here (at most 100 per account, the newest), which the admission reads under the account's
-- lock; the sweep removes rows older than the session TTL. Outcome 'cancelled' changes nothing.
CREATE TABLE upload_cancels (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  unique_id text NOT NULL,
  cancelled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, unique_id)
);
CREATE INDEX upload_cancels_cancelled_at ON upload_cancels (cancelled_at);

CREATE OR REPLACE FUNCTION upload_admit_chunk(
  p_user uuid, p_unique text, p_total integer, p_number integer, p_size bigint, p_key text,
  p_session_limit bigint, p_held_limit bigint, p_open_limit integer, p_family uuid
) RETURNS TABLE (
  outcome text, total_chunks integer, received integer[], received_bytes float8,
  created boolean, replaced_key text, open_sessions integer, held_bytes float8
) LANGUAGE plpgsql AS $$
DECLARE
  v_total integer;
  v_held integer[];
  v_session_bytes bigint;
  v_held_bytes bigint;
  v_open integer;
  v_old text;
  v_finalizing boolean;
  v_state text;
  v_until timestamptz;
BEGIN
  -- The viewer plugin's account read (identity/viewer.ts, account-state.ts isActive), with the lock:
  -- the chunk route skips that read (ADR 025), so these answers are its 401s.
  SELECT u.state, u.suspended_until INTO v_state, v_until FROM users u WHERE u.id = p_user FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no_account'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  IF NOT (v_state = 'active' OR (v_state = 'suspended' AND v_until IS NOT NULL AND v_until <= now())) THEN
    RETURN QUERY SELECT 'suspended'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  IF p_family IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = p_family AND s.user_id = p_user AND s.revoked_at IS NULL) THEN
    RETURN QUERY SELECT 'revoked'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  SELECT s.total_chunks, s.finalizing_at > now() - interval '15 minutes' INTO v_total, v_finalizing
    FROM upload_sessions s WHERE s.user_id = p_user AND s.unique_id = p_unique;
  -- While the last chunk assembles (the claim of uploads.repository.ts), its chunks stay as they are.
  IF v_finalizing THEN
    RETURN QUERY SELECT 'finalizing'::text, v_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  -- A cancelled upload stays cancelled: a chunk already on its way when the DELETE came opens nothing.
  IF v_total IS NULL AND EXISTS (SELECT 1 FROM upload_cancels x WHERE x.user_id = p_user AND x.unique_id = p_unique) THEN
    RETURN QUERY SELECT 'cancelled'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  IF v_total IS NOT NULL AND v_total <> p_total THEN
    RETURN QUERY SELECT 'total_mismatch'::text, v_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  SELECT coalesce(array_agg(c.chunk_number ORDER BY c.chunk_number) FILTER (WHERE c.chunk_number <> p_number), '{}'),
         coalesce(sum(c.size) FILTER (WHERE c.chunk_number <> p_number), 0),
         max(c.object_key) FILTER (WHERE c.chunk_number = p_number)
    INTO v_held, v_session_bytes, v_old
    FROM upload_chunks c WHERE c.user_id = p_user AND c.unique_id = p_unique;
  IF (0 = ANY (v_held) AND p_number = p_total) OR (p_total = ANY (v_held) AND NOT 0 = ANY (v_held) AND p_number = 0) THEN
    RETURN QUERY SELECT 'numbering'::text, p_total, v_held, NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  SELECT count(*)::integer INTO v_open FROM upload_sessions s WHERE s.user_id = p_user;
  IF v_total IS NULL AND v_open >= p_open_limit THEN
    RETURN QUERY SELECT 'too_many_open'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, v_open, NULL::float8;
    RETURN;
  END IF;
  IF v_session_bytes + p_size > p_session_limit THEN
    RETURN QUERY SELECT 'too_large'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, NULL::float8;
    RETURN;
  END IF;
  SELECT coalesce(sum(c.size), 0) INTO v_held_bytes FROM upload_chunks c
    WHERE c.user_id = p_user AND NOT (c.unique_id = p_unique AND c.chunk_number = p_number);
  IF v_held_bytes + p_size > p_held_limit THEN
    RETURN QUERY SELECT 'too_much_held'::text, p_total, NULL::integer[], NULL::float8, false, NULL::text, NULL::integer, v_held_bytes::float8;
    RETURN;
  END IF;
  IF v_total IS NULL THEN
    INSERT INTO upload_sessions (user_id, unique_id, total_chunks) VALUES (p_user, p_unique, p_total);
  ELSE
    UPDATE upload_sessions s SET updated_at = now() WHERE s.user_id = p_user AND s.unique_id = p_unique;
  END IF;
  INSERT INTO upload_chunks (user_id, unique_id, chunk_number, size, object_key)
    VALUES (p_user, p_unique, p_number, p_size, p_key)
    ON CONFLICT (user_id, unique_id, chunk_number) DO UPDATE SET size = EXCLUDED.size, object_key = EXCLUDED.object_key;
  RETURN QUERY SELECT 'ok'::text, p_total, (SELECT array_agg(n ORDER BY n) FROM unnest(v_held || p_number) AS n),
    (v_session_bytes + p_size)::float8, v_total IS NULL, v_old, NULL::integer, NULL::float8;
END;
$$;
