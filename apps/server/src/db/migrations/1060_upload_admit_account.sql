-- A chunk's admission also reads the account as the viewer plugin does on every other request
-- (ADR 025): active (or past its suspension) and, for a token of a login session, that session not
-- ended. The chunk route skips the plugin's read, so a chunk costs one round trip instead of two.
-- Outcomes 'no_account', 'suspended' and 'revoked' change nothing (the route answers 401).
DROP FUNCTION upload_admit_chunk(uuid, text, integer, integer, bigint, text, bigint, bigint, integer);

CREATE FUNCTION upload_admit_chunk(
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
