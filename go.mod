module github.com/smsim/smsim

go 1.26.8
