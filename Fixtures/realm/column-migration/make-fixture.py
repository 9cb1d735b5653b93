import json, random
random.seed(11)
schema = {"classes": [
 {"name": "Person", "primaryKey": "_id", "properties": {
   "_id": "int", "name": {"type": "string", "indexed": True}, "age": "int", "score": "double?", "active": "bool",
   "born": "date", "nick": "string?", "tags": {"type": "string[]", "indexed": True}, "nums": "int<>", "attrs": "int{}",
   "dog": "Dog", "friends": "Person[]", "address": "Address", "addresses": "Address[]", "uid": "uuid?",
   "oid": "objectId", "dec": "decimal128", "blob": "data?", "code": "int?"}},
 {"name": "Dog", "properties": {"name": "string", "owner": "Person", "pals": "Person{}", "walkers": "Person<>"}},
 {"name": "Address", "embedded": True, "properties": {"street": "string", "zip": "int?"}},
 {"name": "Tag", "primaryKey": "code", "properties": {"code": "string", "uses": "int", "any": "mixed", "anyList": "mixed[]"}},
]}
P = 700
people = []
for i in range(P):
    people.append({
      "_id": i * 3 - 50, "name": f"person-{i}" + ("x" * (i % 70)), "age": i % 97, "score": None if i % 5 == 0 else i * 0.25,
      "active": i % 2 == 0, "born": {"$date": {"$numberLong": str(1_600_000_000_000 + i * 1000)}},
      "nick": None if i % 4 == 0 else f"n{i}", "tags": [f"t{i%7}", f"t{i%3}", f"t{i%7}"][: i % 4],
      "nums": list(range(i % 5)), "attrs": {f"k{j}": j * i for j in range(i % 3)},
      "dog": (i % 300) if i % 2 == 0 else None, "friends": [(j * 3 - 50) for j in range((i + 1) % 5)],
      "address": {"street": f"street {i}", "zip": None if i % 6 == 0 else 10000 + i} if i % 3 else None,
      "addresses": [{"street": f"a{i}-{j}", "zip": j} for j in range(i % 3)],
      "uid": None if i % 7 == 0 else {"$uuid": "%08x-0000-4000-8000-%012x" % (i, i * 7)},
      "oid": {"$oid": "%024x" % (0x5f000000 * 4096 + i)}, "dec": {"$numberDecimal": f"{i}.{i%10}"},
      "blob": None if i % 2 else {"$binary": {"base64": "AAEC", "subType": "00"}},
      "code": None if i % 9 == 0 else i * 11,
    })
dogs = []
for d in range(300):
    dogs.append({"_key": d, "name": f"dog-{d}", "owner": (d * 3 - 50) if d % 4 else None,
                 "pals": {"best": d * 3 - 50, "other": None} if d % 5 == 0 else {},
                 "walkers": [(d * 3 - 50), ((d + 1) * 3 - 50)] if d % 3 == 0 else []})
def any_value(i):
    return [{"$ref": "Person", "$id": i * 3 - 50}, f"text {i}", {"$ref": "Dog", "$id": i}, 2.5 * i, None][i % 5]
tags = [{"code": f"t{i}", "uses": i, "any": any_value(i), "anyList": [any_value(i + 1), i, {"$ref": "Person", "$id": -50}]} for i in range(7)]
json.dump(schema, open("column-migration.schema.json", "w"))
json.dump({"Person": people, "Dog": dogs, "Tag": tags}, open("column-migration.fixture.json", "w"))
