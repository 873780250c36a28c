# column-major: consecutive pids walk down one column of output tiles
pid_m = pid % num_pid_m
pid_n = pid // num_pid_m
