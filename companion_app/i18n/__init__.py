"""Languages: gettext catalogues (German, English, Bulgarian), rank numbering, sentences from game data."""
