module xsession

go 1.19
