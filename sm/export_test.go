package sm

// SetMMAJobHold has every wgmma job on a worker run hold first (nil: none).
func SetMMAJobHold(hold func()) { mmaJobHold = hold }
