module github.com/golang/snappy

go 1.21
