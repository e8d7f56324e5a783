"""The Kivy screens and widgets of the tablet, the referee display and the hall overview."""
