// Package email reads RFC 5322 messages (.eml) and mbox files. A message's
// subject is its title; From, To, Cc, Date, Subject and Message-ID are
// fields (and the first lines of its text, so they are searchable); the
// text body comes from text/plain, or from text/html through the html
// parser when there is no plain alternative; quoted-printable and base64
// are decoded and the charset converted. Attachments that a parser handles
// (passed in as parse.Input.Nested) become parts of their own, labelled
// "attachment: name", keeping their pages or slides beneath that label,
// and their metadata in Doc.Attachments: the parser that read them, their
// own title and fields, and the headers of their message they have no
// field of that name for (what queries filter the attachment's entry by).
//
// An mbox is split on "From " lines; each message becomes a part labelled
// with its subject (and its attachments parts after it). The fields of an
// mbox are those of its first message plus the message count.
package email
