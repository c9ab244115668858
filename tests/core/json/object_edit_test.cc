// json/object_edit: replacing, inserting and removing one member, every other byte untouched.
#include <gtest/gtest.h>

#include <string>

#include "json/object_edit.h"

namespace xs::json {
namespace {

std::string set(std::string_view obj, std::string_view key, std::string_view value, std::string_view before = {}) {
  auto r = set_member(obj, key, value, before);
  return r.ok() ? *r : "<error " + std::to_string(static_cast<int>(r.status().code())) + ">";
}

std::string remove(std::string_view obj, std::string_view key) {
  auto r = remove_member(obj, key);
  return r.ok() ? *r : "<error " + std::to_string(static_cast<int>(r.status().code())) + ">";
}

// JavaScript assignment to an existing key keeps its position.
TEST(SetMember, ReplacesAnExistingValueInPlace) {
  EXPECT_EQ(set(R"({"a":1,"b":2,"c":3})", "b", R"("x")"), R"({"a":1,"b":"x","c":3})");
  EXPECT_EQ(set(R"({"a":1})", "a", R"({"deep":[1,2]})"), R"({"a":{"deep":[1,2]}})");
  EXPECT_EQ(set(R"({"a":[1,2,3],"b":0})", "a", "null"), R"({"a":null,"b":0})");
}

TEST(SetMember, KeepsTheBytesAroundTheEdit) {
  EXPECT_EQ(set("{ \"a\" : 1.50 , \"b\" : \"\\u00e9\" }", "a", "7"), "{ \"a\" : 7 , \"b\" : \"\\u00e9\" }");
  EXPECT_EQ(set(R"({"s":"\ud83d","n":18446744073709551616,"v":1})", "v", "2"),
            R"({"s":"\ud83d","n":18446744073709551616,"v":2})");
}

TEST(SetMember, DuplicateKeysReplaceTheLastOccurrence) {
  EXPECT_EQ(set(R"({"a":1,"b":2,"a":3})", "a", "9"), R"({"a":1,"b":2,"a":9})");
}

TEST(SetMember, MatchesEscapedKeys) {
  EXPECT_EQ(set(R"({"\u0069d":"old"})", "id", R"("new")"), R"({"\u0069d":"new"})");
}

// Assignment to a new key puts it at the end.
TEST(SetMember, AppendsANewKeyAtTheEnd) {
  EXPECT_EQ(set(R"({"a":1})", "id", R"("x")"), R"({"a":1,"id":"x"})");
  EXPECT_EQ(set("{}", "id", R"("x")"), R"({"id":"x"})");
  EXPECT_EQ(set("{ }", "id", "1"), R"({ "id":1})");
  EXPECT_EQ(set("{\"a\":1}  ", "b", "2"), "{\"a\":1,\"b\":2}  ");
  EXPECT_EQ(set("{\"a\":1 }", "b", "2"), "{\"a\":1 ,\"b\":2}");
}

TEST(SetMember, EscapesTheNewKey) {
  EXPECT_EQ(set("{}", "q\"k", "1"), R"({"q\"k":1})");
}

TEST(SetMember, InsertsBeforeAnotherKeyWhenAsked) {
  EXPECT_EQ(set(R"({"type":"session","id":"s","parentSession":"p"})", "title", R"("T")", "parentSession"),
            R"({"type":"session","id":"s","title":"T","parentSession":"p"})");
  // before_key absent: the end.
  EXPECT_EQ(set(R"({"type":"session","id":"s"})", "title", R"("T")", "parentSession"),
            R"({"type":"session","id":"s","title":"T"})");
  // The key already exists: replaced in place, before_key ignored.
  EXPECT_EQ(set(R"({"title":"a","parentSession":"p"})", "title", R"("b")", "parentSession"),
            R"({"title":"b","parentSession":"p"})");
  // Before the first member.
  EXPECT_EQ(set(R"({"b":2})", "a", "1", "b"), R"({"a":1,"b":2})");
}

TEST(SetMember, RefusesNonObjectsAndInvalidJson) {
  EXPECT_EQ(set_member("[1,2]", "a", "1").status().code(), Code::kInvalid);
  EXPECT_EQ(set_member("42", "a", "1").status().code(), Code::kInvalid);
  EXPECT_EQ(set_member("{\"a\":", "a", "1").status().code(), Code::kInvalid);
  EXPECT_EQ(set_member("", "a", "1").status().code(), Code::kInvalid);
}

TEST(RemoveMember, RemovesWithTheRightComma) {
  EXPECT_EQ(remove(R"({"a":1,"b":2,"c":3})", "a"), R"({"b":2,"c":3})");
  EXPECT_EQ(remove(R"({"a":1,"b":2,"c":3})", "b"), R"({"a":1,"c":3})");
  EXPECT_EQ(remove(R"({"a":1,"b":2,"c":3})", "c"), R"({"a":1,"b":2})");
  EXPECT_EQ(remove(R"({"a":1})", "a"), R"({})");
  EXPECT_EQ(remove(R"({"a":{"x":[1,{"y":2}]},"b":2})", "a"), R"({"b":2})");
}

TEST(RemoveMember, RemovesEveryOccurrence) {
  EXPECT_EQ(remove(R"({"a":1,"b":2,"a":3})", "a"), R"({"b":2})");
  EXPECT_EQ(remove(R"({"a":1,"a":2})", "a"), R"({})");
  EXPECT_EQ(remove(R"({"x":0,"a":1,"a":2,"y":3})", "a"), R"({"x":0,"y":3})");
  EXPECT_EQ(remove(R"({"x":0,"a":1,"y":3,"a":2})", "a"), R"({"x":0,"y":3})");
}

TEST(RemoveMember, MissingKeyLeavesTheTextAsItWas) {
  std::string text = "{ \"a\" : 1 ,  \"b\":\"\\ud83d\" }";
  EXPECT_EQ(remove(text, "zzz"), text);
}

TEST(RemoveMember, KeepsSurroundingWhitespace) {
  EXPECT_EQ(remove("{ \"a\" : 1 , \"b\" : 2 }", "a"), "{ \"b\" : 2 }");
  EXPECT_EQ(remove("{ \"a\" : 1 , \"b\" : 2 }", "b"), "{ \"a\" : 1 }");
}

TEST(RemoveMember, RefusesNonObjects) {
  EXPECT_EQ(remove_member("[1]", "a").status().code(), Code::kInvalid);
  EXPECT_EQ(remove_member("nope", "a").status().code(), Code::kInvalid);
}

}  // namespace
}  // namespace xs::json
