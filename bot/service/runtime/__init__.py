"""What keeps the judge running: deadlines and their watermarks, leadership among processes, the outbox worker's claims."""
