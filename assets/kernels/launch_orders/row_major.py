# row-major: consecutive pids walk along one row of output tiles
pid_m = pid // num_pid_n
pid_n = pid % num_pid_n
