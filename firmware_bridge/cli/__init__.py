"""The `arbiter` command and its subcommands."""
