"""What members and game masters ask for: the game master's operations, invitations, members' commands, /odds and /rules."""
