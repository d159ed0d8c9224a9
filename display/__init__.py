"""What a person reads on the board's screen: clock faces, scores, menus (pygame surfaces)."""
