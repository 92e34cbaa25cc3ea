// Package email reads RFC 5322 messages (.eml) and mbox files. A message's
// subject is its title; From, To, Cc, Date, Subject and Message-ID are
// fields (and the first lines of its text, so they are searchable); the
// text body comes from text/plain, or from text/html through the html
// parser when there is no plain alternative; quoted-printable and base64
// are decoded and the charset converted. Attachments that a parser handles
// (passed in as parse.Input.Nested) become parts of their own, labelled
// "attachment: name", keeping their pages or slides beneath that label.
//
// An mbox is split on "From " lines; each message becomes a part labelled
// with its subject (and its attachments parts after it). The fields of an
// mbox are those of its first message plus the message count.
package email
