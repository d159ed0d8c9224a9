"""What follows the physical board: the tracker (occupancy to what happened),
the LED layers and frame, the take-back guide, the sensor log, and the loop
that polls the devices."""
