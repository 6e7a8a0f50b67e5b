// The source of each given argument (Argument.aid), with what a person reads it by: a title
// (args.me sourceTitle, a JSON Lines title), else an ArgKP topic, else an args.me discussion
// title (null where the loader stored none: AIF maps, SIGIR-19 discussions; the sid names
// those), and the URL where the data has one.
UNWIND $aids AS aid
MATCH (:Argument {aid: aid})-[:FROM]->(s:Source)
RETURN aid, s.sid AS sid, coalesce(s.title, s.topic, s.discussion) AS title, s.url AS url
