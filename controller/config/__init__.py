"""What a person gives the board: the settings file's reader (`config_file`),
the controller's own sections of it (`board_config`), and files named on the
command line, read with bounds and written safely (`user_files`)."""
