module github.com/sandsh/sandsh

go 1.26.8

require github.com/spf13/afero v1.15.0

require golang.org/x/text v0.28.0 // indirect
