-- A deleted account's key outlives it until its Delete activities are delivered (they must be
-- signed by the deleted actor, as Mastodon and PeerTube check): the key is detached, not removed,
-- and the federation maintenance removes a detached key once no delivery signed by it is waiting.
ALTER TABLE federation_keys DROP CONSTRAINT federation_keys_user_id_fkey;
ALTER TABLE federation_keys ADD CONSTRAINT federation_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;
